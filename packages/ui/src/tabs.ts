import './styles/ui.css';

export { Tabs, TabsContent, TabsList, TabsTrigger } from './components/tabs';
