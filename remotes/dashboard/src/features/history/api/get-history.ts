import {
  IncomePageResponseSchema,
  OrderHistoryPageResponseSchema,
  TradeHistoryPageResponseSchema,
} from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { filterQuery, HISTORY_PAGE_SIZE, type HistoryFilter } from '../lib/history-filter';
import { historyKeys } from './history-keys';

const PATHS = {
  trades: '/api/v1/dashboard/history/trades',
  orders: '/api/v1/dashboard/history/orders',
  income: '/api/v1/dashboard/income',
} as const;

/** One page of the imported fills, filtered and sorted by the server */
export async function getTradeHistory(
  api: ApiClient,
  filter: HistoryFilter,
  page: number,
  signal?: AbortSignal,
) {
  return unwrap(
    await api.get(PATHS.trades, {
      schema: TradeHistoryPageResponseSchema,
      query: { ...filterQuery(filter, 'trades'), page, pageSize: HISTORY_PAGE_SIZE },
      signal,
    }),
  ).data;
}

/** One page of the imported orders */
export async function getOrderHistory(
  api: ApiClient,
  filter: HistoryFilter,
  page: number,
  signal?: AbortSignal,
) {
  return unwrap(
    await api.get(PATHS.orders, {
      schema: OrderHistoryPageResponseSchema,
      query: { ...filterQuery(filter, 'orders'), page, pageSize: HISTORY_PAGE_SIZE },
      signal,
    }),
  ).data;
}

/** One page of the imported income (realized PnL, fees, funding, transfers) */
export async function getIncomeHistory(
  api: ApiClient,
  filter: HistoryFilter,
  page: number,
  signal?: AbortSignal,
) {
  return unwrap(
    await api.get(PATHS.income, {
      schema: IncomePageResponseSchema,
      query: { ...filterQuery(filter, 'income'), page, pageSize: HISTORY_PAGE_SIZE },
      signal,
    }),
  ).data;
}

/** The next page while rows are left, else none */
const nextPage = (last: { page: number; pageSize: number; total: number }) =>
  last.page * last.pageSize < last.total ? last.page + 1 : undefined;

/**
 * Pages of a tab, one more each time the table nears its end. A new filter keeps the old rows on screen until the
 * first page of the new one arrives (no flash of the loading state)
 */
function useHistoryPages<T extends { page: number; pageSize: number; total: number }>(
  tab: 'trades' | 'orders' | 'income',
  filter: HistoryFilter,
  enabled: boolean,
  read: (api: ApiClient, filter: HistoryFilter, page: number, signal?: AbortSignal) => Promise<T>,
) {
  const { api } = useKestrelRuntime();
  return useInfiniteQuery({
    queryKey: historyKeys.list(tab, filter),
    queryFn: ({ pageParam, signal }) => read(api, filter, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    placeholderData: keepPreviousData,
    // Thousands of rows: comparing every loaded row with the last answer costs more than it saves
    structuralSharing: false,
    // No timed refetch of every loaded page: account notices refetch the ['dashboard'] prefix when fills come
    refetchInterval: false,
    enabled,
  });
}

export const useTradeHistory = (filter: HistoryFilter, enabled: boolean) =>
  useHistoryPages('trades', filter, enabled, getTradeHistory);
export const useOrderHistory = (filter: HistoryFilter, enabled: boolean) =>
  useHistoryPages('orders', filter, enabled, getOrderHistory);
export const useIncomeHistory = (filter: HistoryFilter, enabled: boolean) =>
  useHistoryPages('income', filter, enabled, getIncomeHistory);
