/** Prefixes vendors put on their credentials, with what they are. Longer prefixes first. */
const TOKEN_PREFIXES: ReadonlyArray<readonly [prefix: string, what: string]> = [
  ["sk-ant-", "an Anthropic API key"],
  ["github_pat_", "a code host access token"],
  ["lin_api_", "a tracker API key"],
  ["xoxb-", "a chat bot token"],
  ["xoxp-", "a chat user token"],
  ["xoxa-", "a chat app token"],
  ["xapp-", "a chat app token"],
  ["ghp_", "a code host access token"],
  ["gho_", "a code host OAuth token"],
  ["ghs_", "a code host app token"],
  ["glpat-", "a code host access token"],
  ["whsec_", "a webhook signing secret"],
  ["sk-", "an API key"],
];

/** Below this length a string is read as a name, whatever it mixes. */
const MIN_RANDOM_LENGTH = 32;
/**
 * Class switches (letter to digit counted twice, lower to upper case once) per
 * character above which a string reads as random. Names made of words switch
 * rarely (`team-2024-chat-a-token`: 0.05, `ChatATokenForProduction`: 0.3);
 * random hex or base64 scores about 0.9; fewer than 1 in 1,000 random
 * 32-character tokens score under this.
 */
const MIN_SWITCH_SCORE = 0.4;

/**
 * Says what a value looks like when it looks like a credential rather than a
 * name: a known vendor prefix, a URL, or a long string of letters and digits
 * that switches between them as random data does. Returns undefined otherwise.
 */
export function looksLikeToken(value: string): string | undefined {
  const lower = value.toLowerCase();
  for (const [prefix, what] of TOKEN_PREFIXES) {
    if (lower.startsWith(prefix) && value.length > prefix.length) return what;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return "a URL (which may carry a credential)";
  if (
    value.length >= MIN_RANDOM_LENGTH
    && /[0-9]/.test(value)
    && /[A-Za-z]/.test(value)
    && switchScore(value) >= MIN_SWITCH_SCORE
  ) {
    return "a random token";
  }
  return undefined;
}

function switchScore(value: string): number {
  let switches = 0;
  for (let i = 1; i < value.length; i++) {
    const a = kind(value.charCodeAt(i - 1));
    const b = kind(value.charCodeAt(i));
    if (a === 0 || b === 0 || a === b) continue;
    switches += a === 3 || b === 3 ? 2 : 1;
  }
  return switches / value.length;
}

/** 1 lower case, 2 upper case, 3 digit, 0 anything else. */
function kind(code: number): number {
  if (code >= 97 && code <= 122) return 1;
  if (code >= 65 && code <= 90) return 2;
  if (code >= 48 && code <= 57) return 3;
  return 0;
}
