/** Benchmark "records": see the issue that owns it. */
export async function run(): Promise<void> {
  throw new Error("bench records is not written yet");
}
