/** The Join form's guesses and wording, kept pure so they are tested without a browser. */
import { type FieldInfo, joinKeyProblem } from "../../../shared/records";

/** The target's Fields a join rule may pair with `base` (the service refuses the rest: joinKeyProblem). */
export function joinableTargets(base: FieldInfo | undefined, targetFields: readonly FieldInfo[]): FieldInfo[] {
  return base ? targetFields.filter((t) => !joinKeyProblem(base.type, t.type)) : [...targetFields];
}

/** "departments’" and "employee’s": the possessive of a table name as a reader says it. */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}’` : `${name}’s`;
}

/**
 * The usual join, guessed: this table's Field named like the target's primary key, or like any
 * Field of the target; the target's Field defaults to the one of the same name as this table's.
 * `chosenBase` is the base Field the user picked (then the target follows it by name).
 */
export function guessJoinKeys(opts: {
  baseFields: readonly FieldInfo[];
  targetFields: readonly FieldInfo[] | undefined;
  targetPk: string | undefined;
  chosenBase: string;
}): { tableKey: string; targetKey: string } {
  const { baseFields, targetFields, targetPk, chosenBase } = opts;
  const tableKey =
    chosenBase ||
    (baseFields.find((f) => f.key === targetPk) ?? baseFields.find((f) => targetFields?.some((t) => t.key === f.key)) ?? baseFields[0])?.key ||
    "";
  let targetKey: string;
  if (targetFields) {
    // Among the target's Fields of a type that can equal this one's.
    const fits = joinableTargets(baseFields.find((f) => f.key === tableKey), targetFields);
    const same = fits.find((t) => t.key === tableKey);
    const pk = fits.find((t) => t.key === targetPk);
    targetKey = (same ?? pk ?? fits[0])?.key ?? "";
  } else {
    // The target's Fields are not known (no fields extension, nothing learnt yet): the same name
    // once the user picked this table's Field, else the primary key the config file names.
    targetKey = chosenBase || (targetPk ?? tableKey);
  }
  return { tableKey, targetKey };
}
