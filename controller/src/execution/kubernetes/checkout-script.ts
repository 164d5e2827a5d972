/** Where the checkout's files are in the pod (docs/kubernetes-backend.md, "Repositories"). */
export const CHECKOUT_PATHS = {
  /** The run's credential Secret, mounted read-only, mode 0400. */
  credentialDir: "/errand/git-credential",
  credentialFile: "/errand/git-credential/token",
} as const;

/** The key of the token in the run's credential Secret. */
export const CREDENTIAL_KEY = "token";
/** The init container that clones. */
export const CHECKOUT_CONTAINER = "checkout";
/** First word of the line the wrapper puts before the result in the termination message. */
export const GIT_LINE = "errand-git";
/** Room the wrapper keeps in the termination message for that line. */
export const GIT_LINE_ROOM = 512;

/**
 * Shared by the checkout and the push: `$ERRAND_GIT_DIR` holds the
 * GIT_ASKPASS program, which answers git's prompts from the credential file.
 * The token is read by `cat` when git asks for it: it is never in an
 * environment variable, an argument or the remote URL.
 */
const GIT_SETUP = [
  'gitdir=$HOME/.errand-git; export GIT_TERMINAL_PROMPT=0 GIT_ASKPASS="$HOME/.errand-git/askpass"',
  // git's last "fatal:" or "error:" line (else the last line: "git: not found"), one line, short: the failure reason.
  `why() { r=$(sed -n 's/^fatal: //p; s/^error: //p' "$gitdir/err" | tail -n 1); [ -n "$r" ] || r=$(tail -n 1 "$gitdir/err"); printf '%s' "$r" | tr -d '\\r' | cut -b 1-300; }`,
];

/**
 * The init container's script, run by `/bin/sh -c` with the termination
 * message file as `$1`. From the environment (ERRAND_GIT_URL,
 * ERRAND_GIT_BRANCH, ERRAND_GIT_DEPTH, ERRAND_GIT_USER_NAME,
 * ERRAND_GIT_USER_EMAIL, ERRAND_GIT_CREDENTIAL_FILE, ERRAND_WORKSPACE,
 * HOME, and ERRAND_GIT_EXISTING for a follow-up): a shallow clone of the
 * default branch into the workspace, the run's branch (fetched when the
 * remote has it already: a follow-up goes on from where the last run left
 * it, and fails when it is gone; else made from the default branch), the
 * git identity, and the commit the run starts from. A failure writes one
 * line naming the cause into the termination message and exits 1.
 */
export const CHECKOUT_SCRIPT = [
  "message=$1",
  ...GIT_SETUP,
  `fail() { printf '%s\\n' "$1" >"$message"; printf 'errand checkout: %s\\n' "$1" >&2; exit 1; }`,
  'mkdir -p "$gitdir" || fail "cannot write $gitdir (HOME must be writable)"',
  `printf '#!/bin/sh\\ncase "$1" in Username*) echo x-access-token ;; *) cat %s ;; esac\\n' "$ERRAND_GIT_CREDENTIAL_FILE" >"$gitdir/askpass"`,
  'chmod 700 "$gitdir/askpass" || fail "cannot write $gitdir/askpass"',
  'cd "$ERRAND_WORKSPACE" || fail "the workspace $ERRAND_WORKSPACE is missing"',
  "b=$ERRAND_GIT_BRANCH",
  'git clone --quiet --no-tags --depth "$ERRAND_GIT_DEPTH" -- "$ERRAND_GIT_URL" . 2>"$gitdir/err" \\',
  '  || fail "the clone of $ERRAND_GIT_URL failed: $(why)"',
  'git config user.name "$ERRAND_GIT_USER_NAME" && git config user.email "$ERRAND_GIT_USER_EMAIL" \\',
  '  || fail "could not set the git identity"',
  'git ls-remote --exit-code --heads origin "refs/heads/$b" >/dev/null 2>"$gitdir/err"; found=$?',
  'if [ "$found" -eq 0 ]; then',
  '  git fetch --quiet --no-tags --depth "$ERRAND_GIT_DEPTH" origin "+refs/heads/$b:refs/heads/$b" 2>"$gitdir/err" \\',
  '    && git checkout --quiet "$b" 2>"$gitdir/err" || fail "could not check out the existing branch $b: $(why)"',
  'elif [ "$found" -eq 2 ] && [ -n "$ERRAND_GIT_EXISTING" ]; then',
  '  fail "the branch $b is not in $ERRAND_GIT_URL any more: the pull request this follow-up continues lost its branch"',
  'elif [ "$found" -eq 2 ]; then',
  '  git checkout --quiet -b "$b" 2>"$gitdir/err" || fail "could not make the branch $b: $(why)"',
  'else fail "could not list the branches of $ERRAND_GIT_URL: $(why)"; fi',
  'git rev-parse HEAD >"$gitdir/base" || fail "could not read the commit the run starts from"',
].join("\n");

/**
 * The wrapper's push, a shell function `errand_push CODE` printing the
 * {@link GIT_LINE} line: after an engine that exited 0, the run's branch is
 * pushed when its head moved past the commit the run started from.
 */
export const PUSH_FUNCTION = [
  "errand_push() {",
  ...GIT_SETUP.map((line) => `  ${line}`),
  '  b=$ERRAND_GIT_BRANCH; cd "$ERRAND_WORKSPACE" || return',
  `  if [ "$1" -ne 0 ]; then echo "${GIT_LINE} not-pushed $b"; return; fi`,
  '  head=$(git rev-parse --verify -q "refs/heads/$b")',
  `  if [ -z "$head" ]; then echo "${GIT_LINE} push-failed $b the branch is gone from the workspace"; return; fi`,
  `  if [ "$head" = "$(cat "$gitdir/base")" ]; then echo "${GIT_LINE} no-changes $b"; return; fi`,
  '  if git push --quiet origin "refs/heads/$b:refs/heads/$b" 2>"$gitdir/err"; then',
  `    echo "${GIT_LINE} pushed $b $head"`,
  `  else echo "${GIT_LINE} push-failed $b $(why)"; fi`,
  "}",
].join("\n");
