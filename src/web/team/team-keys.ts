/** Query keys of the team layer's resources (who am I, people, sessions). */
export const teamKeys = {
  all: () => ["team"] as const,
  me: () => ["team", "me"] as const,
  mySessions: () => ["team", "me", "sessions"] as const,
  people: () => ["team", "people"] as const,
  sessionsOf: (email: string) => ["team", "people", email, "sessions"] as const,
};
