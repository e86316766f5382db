import './styles/ui.css';

export {
  type ColumnDef,
  DataTable,
  type DataTableProps,
  type DataTableVirtualization,
  type SortingState,
} from './components/data-table';
export {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from './components/table';
