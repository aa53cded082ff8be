import { describe, expect, it } from "vitest";
import { didYouMean, nearestName } from "./near-name";

describe("the name a mistyped one meant", () => {
  const fields = ["employee_id", "full_name", "job_title", "city", "country", "age"];
  it("finds one a few edits away, without case", () => {
    expect(nearestName("full_nam", fields)).toBe("full_name");
    expect(nearestName("Full_Name", fields)).toBe("full_name");
    expect(nearestName("contry", fields)).toBe("country");
    expect(nearestName("cuntry", fields)).toBe("country");
    expect(nearestName("job_tilte", fields)).toBe("job_title");
  });
  it("suggests nothing far off", () => {
    expect(nearestName("salary", fields)).toBeUndefined();
    expect(nearestName("x", fields)).toBeUndefined();
    expect(didYouMean("salary", fields)).toBe("");
    expect(didYouMean("ag", fields)).toBe(' (did you mean "age"?)');
  });
});
