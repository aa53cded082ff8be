/**
 * Passwords too common to accept, compared lower-cased. Only those of 12 characters or more
 * matter (shorter ones are refused by length); the list is the long entries of the public
 * "most common passwords" lists, plus the obvious patterns below.
 */
export const COMMON_PASSWORDS = new Set([
  "123456789012", "1234567890123", "12345678901234", "123456789123", "password1234", "password12345",
  "passwordpassword", "qwertyuiopasdfgh", "qwertyuiop123", "qwertyuiopas", "1q2w3e4r5t6y", "1q2w3e4r5t6y7u",
  "iloveyou1234", "administrator", "administrator1", "letmein12345", "welcome12345", "welcome123456",
  "changeme1234", "changemenow1", "baseboard123", "baseboard1234", "correcthorsebatterystaple", "trustno1trustno1",
  "aaaaaaaaaaaa", "111111111111", "000000000000", "abcdefghijkl", "abcdefghijklmnop", "abc123abc123",
  "password123!", "password1234!", "p@ssw0rd1234", "p@ssword1234", "passw0rd1234", "superman1234",
  "football1234", "baseball1234", "sunshine1234", "princess1234", "dragon123456", "monkey123456",
  "whatever1234", "starwars1234", "computer1234", "internet1234", "qazwsxedcrfv", "zaq12wsxcde3",
  "1qaz2wsx3edc", "asdfghjkl123", "zxcvbnm12345", "mypassword12", "mypassword123", "secretpassword",
  "adminadmin123", "admin1234567", "rootroot1234", "testtest1234", "letmeinplease",
]);

/** Why a password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string, email?: string): string | undefined {
  if ([...password].length < 12) return "A password needs at least 12 characters.";
  if ([...password].length > 256) return "A password may have at most 256 characters.";
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return "That password is one of the most common ones; choose another.";
  if (new Set(lower).size <= 2) return "That password repeats one or two characters; choose another.";
  const local = email?.split("@")[0]?.toLowerCase();
  // A short name (eve, sam) is too likely inside a fine password to refuse it there; the whole
  // address is never fine (review 37b #5: "eve@example.com123" was taken).
  if (email && lower.includes(email.toLowerCase())) return "A password must not contain your email address.";
  if (local && local.length >= 4 && lower.includes(local)) return "A password must not contain your email's name.";
  return undefined;
}
