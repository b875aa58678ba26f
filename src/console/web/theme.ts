// Light and dark: the system's choice by default, or the one picked with the header's button
// (kept in local storage). The page's colours are CSS variables; the chart reads them.
import { h } from './dom.ts';

type Choice = 'auto' | 'light' | 'dark';
const STORAGE_KEY = 'mds.console.theme';
const NEXT: Record<Choice, Choice> = { auto: 'light', light: 'dark', dark: 'auto' };

function apply(choice: Choice): void {
  if (choice === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

/** Applies the saved choice; returns the header button that cycles auto → light → dark. */
export function themeButton(onChange: () => void): HTMLButtonElement {
  let choice = (localStorage.getItem(STORAGE_KEY) as Choice | null) ?? 'auto';
  if (!(choice in NEXT)) choice = 'auto';
  apply(choice);
  const button = h('button', { type: 'button', class: 'link', id: 'theme-toggle' });
  const label = () => {
    button.textContent = `theme: ${choice}`;
    button.title = 'Switch between the system theme, light and dark';
  };
  label();
  button.addEventListener('click', () => {
    choice = NEXT[choice];
    localStorage.setItem(STORAGE_KEY, choice);
    apply(choice);
    label();
    resolved.clear();
    onChange();
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    resolved.clear();
    onChange();
  });
  return button;
}

let probe: HTMLElement | null = null;
const resolved = new Map<string, string>();

/**
 * A colour variable as the browser resolves it now (`rgb(...)`): the variables hold
 * light-dark() pairs, which a canvas cannot read, so the chart and the flashes ask through an
 * element whose `color` is the variable.
 */
export function cssColor(name: string): string {
  if (!probe) {
    probe = document.createElement('span');
    probe.style.display = 'none';
    document.body.append(probe);
  }
  let color = resolved.get(name);
  if (color === undefined) {
    probe.style.color = `var(${name})`;
    color = getComputedStyle(probe).color;
    resolved.set(name, color);
  }
  return color;
}
