/** Benchmark "storage": see the issue that owns it. */
export async function run(): Promise<void> {
  throw new Error("bench storage is not written yet");
}
