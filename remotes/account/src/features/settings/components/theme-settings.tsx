import type { Theme } from '@kestrel/shared-runtime';
import { useTheme } from '@kestrel/shared-runtime/react';
import { cn } from '@kestrel/ui';

const CHOICES: { value: Theme; label: string; hint: string }[] = [
  { value: 'light', label: 'Light', hint: 'Dark text on a light background' },
  { value: 'dark', label: 'Dark', hint: 'Light text on a dark background, easier at night' },
];

/**
 * Light or dark (spec §4): the shell's own theme, read and changed through the runtime, so this choice and the top
 * bar's toggle are one state; each change is stored under `kestrel-theme` and applies at once
 */
export function ThemeSettings() {
  const { theme, set } = useTheme();
  return (
    <fieldset className="ac:flex ac:flex-col ac:gap-2">
      <legend className="ac:sr-only">Theme</legend>
      <div className="ac:grid ac:grid-cols-1 ac:gap-2 ac:sm:grid-cols-2">
        {CHOICES.map((c) => (
          <label
            key={c.value}
            className={cn(
              'ac:flex ac:cursor-pointer ac:items-start ac:gap-3 ac:rounded-lg ac:border ac:p-3 ac:text-sm',
              'ac:has-[:focus-visible]:ring-2 ac:has-[:focus-visible]:ring-ring',
              theme === c.value ? 'ac:border-primary ac:bg-primary/5' : 'ac:border-border',
            )}
          >
            <input
              type="radio"
              name="theme"
              value={c.value}
              checked={theme === c.value}
              onChange={() => set(c.value)}
              className="ac:mt-0.5 ac:accent-primary"
            />
            <span className="ac:flex ac:flex-col">
              <span className="ac:font-medium">{c.label}</span>
              <span className="ac:text-muted-foreground">{c.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
