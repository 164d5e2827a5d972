import type { ChannelError } from "@errand/channel-sdk";

/** The rejection of `promise` as a ChannelError; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<ChannelError> {
  try {
    await promise;
  } catch (error) {
    return error as ChannelError;
  }
  throw new Error("expected a rejection");
}
