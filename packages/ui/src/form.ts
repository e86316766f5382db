// ui's stylesheet travels with the main entry, a shared module loaded once per page; importing the sheet here too
// would add a copy of it per entry point (stylesheets are never shared)
// biome-ignore lint/style/noRestrictedImports: ui's own main entry (self-reference), not another workspace package
import '@kestrel/ui';

export {
  Form,
  FormField,
  type FormFieldControl,
  type FormFieldProps,
  FormMessage,
  type FormMessageProps,
  type FormProps,
  type OptionalNumberField,
  OptionalNumberFields,
  type OptionalNumberFieldsProps,
} from './components/form';
