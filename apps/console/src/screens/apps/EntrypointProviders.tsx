import type { IdentityProvider } from "../../api/types.ts";
import { useI18n } from "../../i18n/index.tsx";
import { Link } from "../../router.tsx";
import { Checkbox } from "../../ui/fields.tsx";

// The identity providers an entry point offers (contract section 11): the
// configured ones to tick, and its own keys in the order its hosted pages
// show their buttons.

type Named = Pick<IdentityProvider, "key" | "displayName">;

/** The configured providers, then any key of the entry point the list lacks (it could not be read): saving keeps it. */
function optionsOf(providers: Named[], chosen: string[]): Named[] {
  const known = new Set(providers.map((p) => p.key));
  return [...providers, ...chosen.filter((k) => !known.has(k)).map((key) => ({ key, displayName: key }))];
}

/** A box per configured provider; ticking one appends it (its button comes last), unticking removes it. */
export function ProviderChecks(props: {
  providers: Named[];
  selected: string[] | undefined;
  onChange: (keys: string[]) => void;
}) {
  const { t } = useI18n();
  const chosen = props.selected ?? [];
  const options = optionsOf(props.providers, chosen);
  const toggle = (key: string, on: boolean) =>
    props.onChange(on ? [...chosen.filter((k) => k !== key), key] : chosen.filter((k) => k !== key));
  return (
    <fieldset className="ep-providers">
      <legend>{t("ep.providers")}</legend>
      {options.length === 0 ? (
        <p className="hint">
          {t("ep.providersNone")} <Link to="/identity-providers">{t("nav.providers")}</Link>
        </p>
      ) : (
        <>
          <span className="hint">{t("ep.providersHint")}</span>
          {options.map((p) => (
            <Checkbox
              key={p.key}
              label={
                <>
                  {p.displayName} <span className="mono muted">({p.key})</span>
                </>
              }
              checked={chosen.includes(p.key)}
              onChange={(e) => toggle(p.key, e.target.checked)}
            />
          ))}
        </>
      )}
    </fieldset>
  );
}

/** The providers an entry point offers, by name, in its buttons' order; "None" without any. */
export function ProviderList({ keys, providers }: { keys: string[] | undefined; providers: Named[] }) {
  const { t } = useI18n();
  if (!keys?.length) return <>{t("ep.providersOff")}</>;
  const names = new Map(providers.map((p) => [p.key, p.displayName]));
  return (
    <ul className="plain">
      {keys.map((k) => (
        <li key={k}>
          {names.get(k) ?? k} <span className="mono muted small">({k})</span>
        </li>
      ))}
    </ul>
  );
}
