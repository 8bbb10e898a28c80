// Tabs as the WAI-ARIA tabs pattern has them: one tab stop (the selected tab; the others are reached with
// the arrow keys), Left/Right move to the previous/next tab and select it (wrapping round), Home/End to the
// first/last; each tab names the panel it controls, and the panel (TabPanel) names its tab.
import type { ComponentChildren } from 'preact';

export interface TabListProps<T extends string> {
  tabs: readonly { id: T; label: ComponentChildren }[];
  selected: T;
  onSelect(id: T): void;
  /** The tab list's accessible name. */
  label: string;
  /** Prefix of the tabs' and panels' element ids (unique on the page). */
  idPrefix: string;
  class?: string;
}

export function TabList<T extends string>({
  tabs,
  selected,
  onSelect,
  label,
  idPrefix,
  class: className,
}: TabListProps<T>) {
  const onKeyDown = (event: KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.id === selected);
    const next =
      event.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    onSelect(tabs[next].id);
    // Focus follows the selection once the list has re-rendered.
    const list = event.currentTarget as HTMLElement;
    requestAnimationFrame(() => list.querySelector<HTMLElement>(`#${idPrefix}-tab-${tabs[next].id}`)?.focus());
  };
  return (
    <nav class={className} role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((t) => (
        <button
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${t.id}`}
          aria-controls={t.id === selected ? `${idPrefix}-panel` : undefined}
          aria-selected={t.id === selected}
          tabIndex={t.id === selected ? 0 : -1}
          class={t.id === selected ? 'active' : ''}
          onClick={() => onSelect(t.id)}
        >
          {t.label}
        </button>
      ))}
    </nav>
  );
}

/** The panel of the selected tab. */
export function TabPanel({
  idPrefix,
  selected,
  children,
  class: className,
}: {
  idPrefix: string;
  selected: string;
  children: ComponentChildren;
  class?: string;
}) {
  return (
    <div role="tabpanel" id={`${idPrefix}-panel`} aria-labelledby={`${idPrefix}-tab-${selected}`} class={className}>
      {children}
    </div>
  );
}
