import type { ConnectionStatus } from '@kestrel/shared-runtime';

const SHAPES: Record<ConnectionStatus | 'unavailable', { className: string; paths: readonly string[] }> = {
  connected: {
    className: 'xc:text-success',
    paths: ['M12 2a10 10 0 1 1 0 20a10 10 0 1 1 0-20', 'm8 12 3 3 5-6'],
  },
  connecting: { className: 'xc:animate-spin xc:text-warning', paths: ['M21 12a9 9 0 1 1-9-9'] },
  error: {
    className: 'xc:text-destructive',
    paths: ['M12 2a10 10 0 1 1 0 20a10 10 0 1 1 0-20', 'M12 7v6M12 17h.01'],
  },
  disconnected: {
    className: 'xc:text-muted-foreground',
    paths: ['M12 2a10 10 0 1 1 0 20a10 10 0 1 1 0-20', 'M8 12h8'],
  },
  unavailable: {
    className: 'xc:text-muted-foreground',
    paths: ['M12 2a10 10 0 1 1 0 20a10 10 0 1 1 0-20', 'M12 7v5l3 2'],
  },
};

/** Decorative: the status text beside it carries the meaning */
export function StatusIcon({ status }: { status: ConnectionStatus | 'unavailable' }) {
  const shape = SHAPES[status];
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={`xc:size-4 ${shape.className}`}
    >
      {shape.paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
