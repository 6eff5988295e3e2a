import type { ImportJob } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Link } from "../../router.tsx";
import { Loading } from "../../ui/states.tsx";

/** A job's counts while it runs, then its lines skipped (with the holder) or failed, by line number. */
export function ImportProgress({ job }: { job: ImportJob }) {
  const { t } = useI18n();
  const done = job.status === "done";
  return (
    <section className="card" aria-labelledby="job-title" aria-live="polite">
      <h2 id="job-title">{done ? t("import.done") : t("import.running")}</h2>
      {!done && <Loading label={t("import.running")} />}
      <dl className="facts compact">
        {(
          [
            ["import.lines", job.lines],
            ["import.imported", job.imported],
            ["import.skipped", job.skipped],
            ["import.failed", job.failedCount],
          ] as const
        ).map(([key, n]) => (
          <div key={key}>
            <dt>{t(key)}</dt>
            <dd>{n ?? 0}</dd>
          </div>
        ))}
      </dl>
      {(job.failed?.length ?? 0) + (job.skips?.length ?? 0) > 0 && (
        <table className="table">
          <caption>{t("import.problems")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("import.line")}</th>
              <th scope="col">{t("import.outcome")}</th>
              <th scope="col">{t("import.field")}</th>
              <th scope="col">{t("import.code")}</th>
            </tr>
          </thead>
          <tbody>
            {[...(job.failed ?? []).map((f) => ({ ...f, user: undefined as string | undefined })), ...(job.skips ?? [])]
              .sort((a, b) => a.line - b.line)
              .map((r) => (
                <tr key={r.line}>
                  <td className="mono">{r.line}</td>
                  <td>
                    {r.user !== undefined ? t("import.outcomeSkipped") : t("import.outcomeFailed")}
                    {r.user && (
                      <>
                        {" · "}
                        <Link to={`/users/${encodeURIComponent(r.user)}`}>{t("import.holder")}</Link>
                      </>
                    )}
                  </td>
                  <td className="mono">{r.field || "—"}</td>
                  <td className="mono">{r.code}</td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
