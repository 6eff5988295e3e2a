import { KEEP_RUNNING } from "./cli/command.ts";
import * as commands from "./cli/commands.ts";
import { runCli } from "./cli/program.ts";

// `npm run --silent cli -- <command>`: see cli/program.ts (conventions) and
// cli/commands.ts (the commands, a file each).
const outcome = await runCli(Object.values(commands), process.argv.slice(2));
// A server keeps the process; anything else exits once its answer is written.
if (outcome !== KEEP_RUNNING) process.stdout.write("", () => process.exit(outcome));
