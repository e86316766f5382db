import { Button } from '@kestrel/ui';

/** Spec §2: the generic router error page */
export function RouterErrorPage() {
  return (
    <main className="sh:mx-auto sh:flex sh:min-h-dvh sh:max-w-lg sh:flex-col sh:justify-center sh:gap-4 sh:p-6">
      <h1 className="sh:text-2xl sh:font-semibold">Unexpected Application Error!</h1>
      <Button className="sh:w-fit" onClick={() => window.location.reload()}>
        Reload Page
      </Button>
    </main>
  );
}
