/** Benchmark "ui": see the issue that owns it. */
export async function run(): Promise<void> {
  throw new Error("bench ui is not written yet");
}
