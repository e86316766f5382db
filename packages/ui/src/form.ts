import './styles/ui.css';

export {
  Form,
  FormField,
  type FormFieldControl,
  type FormFieldProps,
  FormMessage,
  type FormMessageProps,
  type FormProps,
} from './components/form';
