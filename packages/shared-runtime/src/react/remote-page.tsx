import type { RemoteName } from '@kestrel/contracts';
import { PageFrame, type PageFrameProps } from '@kestrel/ui';
import { runtimeInstanceId } from '../instance';

export type RemotePageProps = PageFrameProps & {
  /** The remote that renders the page (its Module Federation container name) */
  remote: RemoteName;
};

/**
 * The frame of every remote's page: ui's `PageFrame`, marked with the remote that rendered it and this runtime
 * copy's id (`data-remote`, `data-runtime-instance`), which the end-to-end tests read to prove one shared runtime
 */
export function RemotePage({ remote, ...props }: RemotePageProps) {
  return <PageFrame data-remote={remote} data-runtime-instance={runtimeInstanceId} {...props} />;
}
