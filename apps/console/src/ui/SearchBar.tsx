import { useState } from "react";
import { useI18n } from "../i18n/index.tsx";

/** A search form: the term is submitted (Enter or the button), not sent on each key. */
export function SearchBar({
  label,
  hint,
  value,
  onSearch,
}: {
  label: string;
  hint?: string;
  value: string;
  onSearch: (q: string) => void;
}) {
  const { t } = useI18n();
  const [q, setQ] = useState(value);
  // A new search from elsewhere (a link, Back) shows its term.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setQ(value);
  }
  return (
    <form
      className="searchbar"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(q.trim());
      }}
    >
      <label htmlFor="search" className="visually-hidden">
        {label}
      </label>
      <input
        id="search"
        type="search"
        value={q}
        placeholder={hint ?? label}
        aria-label={label}
        onChange={(e) => setQ(e.target.value)}
      />
      <button type="submit" className="button primary">
        {t("common.search")}
      </button>
    </form>
  );
}
