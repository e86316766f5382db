import { Spinner } from '@kestrel/ui';

export function FullScreenSpinner({ label }: { label: string }) {
  return (
    <div className="sh:flex sh:min-h-dvh sh:items-center sh:justify-center">
      <Spinner label={label} />
    </div>
  );
}
