/** The `create-channel` CLI; resolves to the exit code. */
export async function main(_argv: string[]): Promise<number> {
  return 2;
}
