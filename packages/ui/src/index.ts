import './styles/ui.css';

export { Badge, type BadgeProps, badgeVariants } from './components/badge';
export { Button, type ButtonProps, buttonVariants } from './components/button';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './components/card';
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
export { Input } from './components/input';
export { RemoteFallback, type RemoteFallbackProps } from './components/remote-fallback';
export { Spinner, type SpinnerProps } from './components/spinner';
export {
  TOOLTIP_OPEN_DELAY_MS,
  TOOLTIP_SKIP_DELAY_MS,
  Tooltip,
  TooltipContent,
  TooltipProvider,
  TooltipTrigger,
} from './components/tooltip';
export { cn } from './lib/cn';
