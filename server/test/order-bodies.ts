/** The body of a limit buy of 0.010 BTCUSDT at 40,000, good till canceled, under `clientOrderId` */
export const limitBuyAt40k = (clientOrderId: string) => ({
  symbol: 'BTCUSDT',
  side: 'BUY' as const,
  type: 'LIMIT' as const,
  timeInForce: 'GTC' as const,
  quantity: '0.010',
  price: '40000',
  clientOrderId,
});
