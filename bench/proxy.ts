/** Benchmark "proxy": see the issue that owns it. */
export async function run(): Promise<void> {
  throw new Error("bench proxy is not written yet");
}
