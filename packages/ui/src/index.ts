/*
 * Light components only. Radix-heavy ones and those over larger libraries have their own entry points
 * (`@kestrel/ui/dialog`, `/tooltip`, `/toast`, `/select`, `/tabs`, `/form`, `/table`, `/chart`): shared federation
 * modules cannot be tree-shaken, so a page pays only for the entry points it imports.
 */
import './styles/ui.css';

export { Badge, type BadgeProps, badgeVariants, EnvironmentBadge } from './components/badge';
export { Button, type ButtonProps, buttonVariants } from './components/button';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './components/card';
export { Field, type FieldControlProps, type FieldProps } from './components/field';
export { Input } from './components/input';
export { NativeSelect } from './components/native-select';
export {
  EmptyState,
  type EmptyStateProps,
  PageFrame,
  type PageFrameProps,
} from './components/page-frame';
export { RemoteFallback, type RemoteFallbackProps, RemoteLoading } from './components/remote-fallback';
export { ScrollRegion, type ScrollRegionProps } from './components/scroll-region';
export { Spinner, type SpinnerProps } from './components/spinner';
export { Textarea } from './components/textarea';
export { ToggleGroup, type ToggleGroupProps } from './components/toggle-group';
export { cn } from './lib/cn';
export {
  figureClassName,
  formatAssetAmount,
  formatDate,
  formatDateTime,
  formatInteger,
  formatPercent,
  formatPnl,
  formatPrice,
  formatQuantity,
  formatRatio,
  formatUsdt,
  NO_VALUE,
  type Pnl,
  type PrecisionOptions,
  stepDecimals,
  type Tone,
  toneClassName,
  toneOf,
} from './lib/format';
