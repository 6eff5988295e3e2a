import { useState } from "react";
import { apiFile } from "../../api/client.ts";
import { useI18n } from "../../i18n/index.tsx";
import { download } from "../../ui/download.ts";
import { Checkbox } from "../../ui/fields.tsx";
import { ErrorBox } from "../../ui/states.tsx";

/** Downloads every user as NDJSON (the import's form); with hashes only for an operator who may write. */
export function ExportUsers() {
  const { t } = useI18n();
  const [hashes, setHashes] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = () => {
    setBusy(true);
    setError(undefined);
    apiFile(`/users/export${hashes ? "?include=hashes" : ""}`)
      .then((blob) => download("users.ndjson", blob), setError)
      .finally(() => setBusy(false));
  };
  return (
    <div className="export-users">
      <Checkbox
        label={t("export.hashes")}
        hint={t("export.hashesHint")}
        checked={hashes}
        onChange={(e) => setHashes(e.target.checked)}
      />
      <button type="button" className="button" onClick={run} disabled={busy}>
        {busy ? t("export.running") : t("export.all")}
      </button>
      {error !== undefined && <ErrorBox error={error} />}
    </div>
  );
}
