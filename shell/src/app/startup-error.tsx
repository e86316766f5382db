/** Shown when the shell cannot even start (e.g. config.json missing or invalid), instead of a blank page */
export function StartupError({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <main className="sh:mx-auto sh:flex sh:min-h-dvh sh:max-w-lg sh:flex-col sh:justify-center sh:gap-3 sh:p-6">
      <h1 className="sh:text-2xl sh:font-semibold">Kestrel could not start</h1>
      <p className="sh:text-muted-foreground">{detail}</p>
      <p className="sh:text-sm sh:text-muted-foreground">
        Check that the deployment serves a valid config.json beside the shell, then reload.
      </p>
    </main>
  );
}
