// ui's stylesheet travels with the main entry, a shared module loaded once per page; importing the sheet here too
// would add a copy of it per entry point (stylesheets are never shared)
// biome-ignore lint/style/noRestrictedImports: ui's own main entry (self-reference), not another workspace package
import '@kestrel/ui';

export { ConfirmDialog, type ConfirmDialogProps, type ConfirmFailure } from './components/confirm-dialog';
export {
  Dialog,
  DialogClose,
  DialogContent,
  type DialogContentProps,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogOverlay,
  DialogTitle,
  DialogTrigger,
} from './components/dialog';
