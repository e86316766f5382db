/*
 * Light components only. Radix-heavy ones have their own entry points (`@kestrel/ui/dialog`, `@kestrel/ui/tooltip`):
 * shared federation modules cannot be tree-shaken, so a page pays only for the entry points it imports.
 */
import './styles/ui.css';

export { Badge, type BadgeProps, badgeVariants } from './components/badge';
export { Button, type ButtonProps, buttonVariants } from './components/button';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './components/card';
export { FormField, type FormFieldControlProps, type FormFieldProps } from './components/form-field';
export { Input } from './components/input';
export { RemoteFallback, type RemoteFallbackProps } from './components/remote-fallback';
export { Spinner, type SpinnerProps } from './components/spinner';
export { cn } from './lib/cn';
