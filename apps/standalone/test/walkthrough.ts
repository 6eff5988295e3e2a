// README.md's walkthrough as a bash script: the text between
// `<!-- walkthrough -->` and `<!-- /walkthrough -->`, its ```sh blocks, run
// as they are, one step (a paragraph: lines up to a blank line) after the
// other in one shell, so variables carry from step to step.

export interface Walkthrough {
  steps: string[];
  script: string;
}

export const STEP_MARK = "::walkthrough-step";

/** The walkthrough's steps, in README order. */
export function walkthroughSteps(readme: string): string[] {
  const start = readme.indexOf("<!-- walkthrough -->");
  const end = readme.indexOf("<!-- /walkthrough -->");
  if (start < 0 || end < start)
    throw new Error("README.md has no <!-- walkthrough --> ... <!-- /walkthrough --> section");
  const blocks = [...readme.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((b) => b.split(/\n\s*\n/))
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Variables a step sets (`NAME=...` at the start of a line, `export` too): each must come out non-empty and not "null". */
export const assignedIn = (step: string) =>
  [...step.matchAll(/^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1]!);

/**
 * The script: stop at the first failing command (errexit, pipefail), one
 * output stream (so a step's output follows its mark), and curl failing on an
 * HTTP error with the body shown (`--fail-with-body`, unless the command
 * already asks for `-f`; the answer is then also shown whole): the README's
 * commands stay plain for people, and an error answer still fails its step here.
 */
export function walkthroughScript(steps: string[]): Walkthrough {
  const prelude = [
    "set -eo pipefail",
    "exec 2>&1",
    "curl() {",
    '  for a in "$@"; do case "$a" in --fail|--fail-with-body|-[a-zA-Z]*f*) command curl "$@"; return;; esac; done',
    "  local answer rc=0",
    '  answer=$(command curl --fail-with-body "$@") || rc=$?',
    // The whole error answer, even when the step pipes it into jq.
    '  [ "$rc" -eq 0 ] || printf \'curl failed (exit %s); the answer: %s\\n\' "$rc" "$answer" >&2',
    "  printf '%s' \"$answer\"",
    '  return "$rc"',
    "}",
  ];
  const body = steps.flatMap((step, i) => [
    `printf '\\n${STEP_MARK} %d\\n' ${i}`,
    step,
    ...assignedIn(step).map(
      (v) =>
        `[ -n "\${${v}:-}" ] && [ "\${${v}}" != null ] || { echo "${v} is empty or null after this step"; exit 97; }`,
    ),
  ]);
  return { steps, script: [...prelude, ...body, `printf '\\n${STEP_MARK} done\\n'`, ""].join("\n") };
}

/** The output of step i (after its mark, up to the next one). */
export function outputOf(output: string, i: number | "done"): string {
  const from = output.indexOf(`${STEP_MARK} ${i}\n`);
  if (from < 0) return "";
  const rest = output.slice(from).split("\n").slice(1).join("\n");
  const next = rest.indexOf(`\n${STEP_MARK} `);
  return next < 0 ? rest : rest.slice(0, next);
}

/** The index of the last step that started (the failing one when the script failed). */
export function lastStep(output: string): number | "done" | undefined {
  const marks = [...output.matchAll(new RegExp(`^${STEP_MARK} (\\d+|done)$`, "gm"))];
  const last = marks.at(-1)?.[1];
  return last === undefined ? undefined : last === "done" ? "done" : Number(last);
}
