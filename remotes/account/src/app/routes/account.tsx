import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { EmptyState } from '@kestrel/ui';

export default function AccountPage() {
  return (
    <RemotePage remote="account" title="Account">
      <EmptyState
        title="Nothing to manage here yet"
        description="Your profile and the devices signed in to your account will be listed here."
      />
    </RemotePage>
  );
}
