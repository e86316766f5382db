// ui's stylesheet travels with the main entry, a shared module loaded once per page; importing the sheet here too
// would add a copy of it per entry point (stylesheets are never shared)
import '@kestrel/ui';

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
