import { useEffect, useState, type FormEvent } from "react";
import { api, query } from "../../api/client.ts";
import type { ImportJob } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Link, navigate, useLocation } from "../../router.tsx";
import { TextArea, TextField } from "../../ui/fields.tsx";
import { Layout } from "../../ui/Layout.tsx";
import { ErrorBox } from "../../ui/states.tsx";
import { ImportProgress } from "./ImportProgress.tsx";

const POLL_MS = 1000;

/** Follows a job until it is done (one read a second). */
function useJob(id: string | undefined) {
  const [job, setJob] = useState<ImportJob>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    if (!id) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    const read = () =>
      api<{ job: ImportJob }>("GET", `/users/import/${encodeURIComponent(id)}`).then(
        (r) => {
          if (stop) return;
          setJob(r.job);
          if (r.job.status !== "done") timer = setTimeout(read, POLL_MS);
        },
        (e: unknown) => !stop && setError(e),
      );
    void read();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [id]);
  return { job, error };
}

/**
 * /console/users/import[?job=]: upload an NDJSON file of users through an
 * entry point (with Firebase's hash parameters when its hashes are
 * Firebase's), then the job's progress and its lines skipped or failed.
 */
export function ImportUsers() {
  const { t } = useI18n();
  const jobId = useLocation().params.get("job") ?? undefined;
  const [entrypoint, setEntrypoint] = useState("");
  const [firebase, setFirebase] = useState("");
  const [file, setFile] = useState<File>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const { job, error: jobError } = useJob(jobId);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file || !entrypoint.trim()) return;
    setBusy(true);
    setError(undefined);
    const q = query({ entrypoint: entrypoint.trim(), firebase: firebase.trim() || undefined });
    api<{ job: ImportJob }>("POST", `/users/import${q}`, file)
      .then((r) => navigate(`/users/import${query({ job: r.job.id })}`), setError)
      .finally(() => setBusy(false));
  };

  return (
    <Layout
      title={t("import.title")}
      actions={
        <Link to="/users" className="button ghost">
          {t("common.back")}
        </Link>
      }
    >
      {!jobId && (
        <form className="card" onSubmit={submit} aria-labelledby="import-form">
          <h2 id="import-form">{t("import.upload")}</h2>
          <p className="muted">{t("import.intro")}</p>
          {error !== undefined && <ErrorBox error={error} />}
          <TextField
            label={t("import.entrypoint")}
            hint={t("import.entrypointHint")}
            value={entrypoint}
            onChange={(e) => setEntrypoint(e.target.value)}
            required
            className="mono"
          />
          <div className="field">
            <label htmlFor="import-file">{t("import.file")}</label>
            <input
              id="import-file"
              type="file"
              accept=".ndjson,.jsonl,application/x-ndjson"
              required
              onChange={(e) => setFile(e.target.files?.[0])}
            />
          </div>
          <TextArea
            label={t("import.firebase")}
            hint={t("import.firebaseHint")}
            value={firebase}
            onChange={(e) => setFirebase(e.target.value)}
            className="mono"
          />
          <button type="submit" className="button primary" disabled={busy || !file || !entrypoint.trim()}>
            {busy ? t("import.uploading") : t("import.start")}
          </button>
        </form>
      )}
      {jobId && jobError !== undefined && <ErrorBox error={jobError} />}
      {jobId && job && <ImportProgress job={job} />}
    </Layout>
  );
}
