/**
 * Limits of chat A's `chat.postMessage` and Block Kit, as the platform
 * documents them, and the budgets this channel renders to. Lengths are
 * counted in UTF-16 code units (JavaScript's `length`), never fewer than the
 * platform's "characters".
 */
export const SLACK_LIMITS = {
  /** "You can include up to 50 blocks in each message" (https://api.slack.com/reference/block-kit/blocks). */
  blocks: 50,
  /** Section text: 1 to 3000 characters (https://docs.slack.dev/reference/block-kit/blocks/section-block). */
  sectionText: 3000,
  /** Section fields: at most 10 items of at most 2000 characters each (same page). */
  sectionFields: 10,
  sectionFieldText: 2000,
  /** Header: plain_text of at most 150 characters (https://docs.slack.dev/reference/block-kit/blocks/header-block). */
  headerText: 150,
  /** Context: at most 10 elements (https://docs.slack.dev/reference/block-kit/blocks/context-block). */
  contextElements: 10,
  /** Text objects: at most 3000 characters (https://docs.slack.dev/reference/block-kit/composition-objects/text-object). */
  textObject: 3000,
  /** Actions: at most 25 elements; button text 75, url 3000, value 2000; ids 255 (block and element references). */
  actionsElements: 25,
  buttonText: 75,
  buttonUrl: 3000,
  buttonValue: 2000,
  blockId: 255,
  actionId: 255,
  /** `text` over 40,000 characters is refused or truncated (https://api.slack.com/changelog/2018-04-truncating-really-long-messages). */
  text: 40_000,
  /**
   * Not documented: the platform answers `msg_blocks_too_long` once the
   * blocks' text passes roughly 13,200 characters (observed in
   * slackapi/bolt-js#2509). This channel stays well below.
   */
  blocksTotalText: 13_000,
} as const;

/** What this channel renders to: inside the limits, with room to spare. */
export const BUDGET = {
  /** Plain-text fallback (`text`), shown in notifications and by screen readers. */
  fallbackText: 1000,
  /** Ticket label inside a link. */
  label: 150,
  /** The free-form message of Notify and the summary of NotifyComplete. */
  longText: 5500,
  /** The failure reason. */
  reason: 2900,
  /** All blocks' text together. */
  blocksTotalText: 12_000,
  /** Longest URL turned into a link; a longer one is shown as its label only. */
  url: 2000,
  /** Labels listed in a context element. */
  labels: 300,
} as const;
