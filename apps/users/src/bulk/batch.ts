import type { PendingAssertion } from "@gatehouse/proto";
import { domainError } from "@gatehouse/errors";
import type { Entrypoint } from "@gatehouse/proto";
import { answersToRecord, applyAnswers, unknownKeys } from "../terms/answers.ts";
import type { AcceptanceStore } from "../terms/store.ts";
import type { Transactional } from "../transactional.ts";
import { newPulseId, newUserId } from "../users/identifiers.ts";
import type { ForeignHashes, ImportContext } from "../verifiers/password/hashes/index.ts";
import { readImportLine, type ImportedUser } from "./line.ts";
import type { ImportJobRow, ImportStore, LineResult, NewImportedUser } from "./store.ts";

export type BatchStores = { imports: ImportStore; acceptances: AcceptanceStore };

export interface Batch {
  job: ImportJobRow;
  entrypoint: Entrypoint;
  /** The legal assertions of the entry point's typologies (their latest versions). */
  catalog: ReadonlyMap<string, PendingAssertion>;
  hashes: ForeignHashes;
  context: ImportContext;
  firstLine: number;
  lines: string[];
}

interface Ready {
  line: number;
  user: ImportedUser;
  row: NewImportedUser;
  answers: ReturnType<typeof answersToRecord>;
}

const idKey = (i: { key: string; value: string }) => `${i.key} ${i.value}`;

/** Reads each line into a row to insert, or the line's result (failed, or skipped by an earlier line of the batch). */
function prepare(b: Batch): { ready: Ready[]; results: LineResult[] } {
  const ready: Ready[] = [];
  const results: LineResult[] = [];
  const claimed = new Map<string, string>(); // id value → the user of an earlier line
  b.lines.forEach((text, i) => {
    const line = b.firstLine + i;
    if (text === "") return; // a blank line is no user
    const read = readImportLine(text, b.entrypoint, b.hashes, b.context);
    if ("fault" in read) return results.push({ line, outcome: "failed", ...read.fault, userId: null });
    const user = read.user;
    const unknown = unknownKeys(Object.keys(user.assertions), b.catalog)[0];
    if (unknown)
      return results.push({
        line,
        outcome: "failed",
        code: unknown.code,
        field: unknown.field.replace(/^object\./, ""),
        userId: null,
      });
    const taken = user.ids.find((id) => claimed.has(idKey(id)));
    if (taken)
      return results.push({
        line,
        outcome: "skipped",
        code: "identifier_taken",
        field: `ids.${taken.key}`,
        userId: claimed.get(idKey(taken))!,
      });
    const created = user.created ?? new Date();
    const answers = answersToRecord({}, new Map(Object.entries(user.assertions)), b.catalog);
    const row: NewImportedUser = {
      id: newUserId(),
      pulseId: newPulseId(),
      passwordHash: user.passwordHash,
      datas: JSON.stringify(user.datas),
      addresses: JSON.stringify(user.addresses),
      assertions: JSON.stringify(applyAnswers({}, answers, created)),
      created,
      ids: user.ids.map((id) => ({ ...id, confirmed: user.confirmed.has(id.key) })),
    };
    for (const id of user.ids) claimed.set(idKey(id), row.id);
    ready.push({ line, user, row, answers });
  });
  return { ready, results };
}

/**
 * Imports one batch of a job's lines in one transaction (contract section
 * 15): lines that fail their checks, or whose id value is already taken
 * (skipped, with the holder), write nothing; the others are inserted
 * set-based with their answers to legal assertions, and the job's counts and
 * results move in the same transaction. No confirmation is issued: imported
 * users get no message, and an unconfirmed main id meets the 412 at login.
 */
export async function importBatch(data: Transactional<BatchStores>, b: Batch): Promise<ImportJobRow> {
  const { ready, results } = prepare(b);
  return data.tx(async (s) => {
    const job = await s.imports.job(b.job.id, true);
    if (!job) throw domainError("IMPORT_NOT_FOUND");
    if (job.status !== "running") throw domainError("IMPORT_FINISHED");
    const holders = await s.imports.holders(ready.flatMap((r) => r.user.ids));
    const fresh = ready.filter((r) => {
      const taken = r.user.ids.find((id) => holders.has(idKey(id)));
      if (taken)
        results.push({
          line: r.line,
          outcome: "skipped",
          code: "identifier_taken",
          field: `ids.${taken.key}`,
          userId: holders.get(idKey(taken))!,
        });
      return !taken;
    });
    const raced = await s.imports.insertUsers(
      fresh.map((r) => r.row),
      job.clientId,
      job.entrypointId,
    );
    for (const r of fresh) {
      if (raced.has(r.row.id)) {
        results.push({ line: r.line, outcome: "skipped", code: "identifier_taken", field: "ids", userId: null });
        continue;
      }
      if (r.answers.length)
        await s.acceptances.append(
          r.row.id,
          r.answers,
          { clientId: job.clientId, sourceId: `import:${job.id}`, via: "import" },
          r.row.created,
        );
    }
    await s.imports.addResults(job.id, results);
    return s.imports.count(job.id, {
      lastLine: b.firstLine + b.lines.length - 1,
      imported: fresh.length - raced.size,
      skipped: results.filter((r) => r.outcome === "skipped").length,
      failed: results.filter((r) => r.outcome === "failed").length,
    });
  });
}
