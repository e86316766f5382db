import { zodResolver } from '@hookform/resolvers/zod';
import type { FuturesOrder, PlaceOrderRequest, SymbolInfo } from '@kestrel/contracts';
import { useLiveMarkPrices } from '@kestrel/shared-runtime/react';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  cn,
  Field,
  formatUsdt,
  Input,
  NativeSelect,
} from '@kestrel/ui';
import { Form, FormField, FormMessage } from '@kestrel/ui/form';
import { useEffect, useRef, useState } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { useSymbolConfig } from '../api/get-symbol-config';
import { useOrderPreview } from '../api/preview-order';
import { describeOrder, precisionOf } from '../lib/describe-action';
import { failureText, type OrderFailure } from '../lib/order-failure';
import {
  defaultTicketValues,
  describeEntryProtection,
  isTrailing,
  needsPrice,
  needsTrigger,
  previewRequest,
  quantityForValue,
  TICKET_TIMES_IN_FORCE,
  TICKET_TYPE_LABELS,
  TICKET_TYPES,
  TIME_IN_FORCE_LABELS,
  type TicketValues,
  takesProtection,
  ticketSchema,
  valueForMarginShare,
} from '../lib/order-ticket';
import { ConfirmActionDialog } from './confirm-action-dialog';
import { FigureInput } from './figure-input';
import { OrderValue, SymbolTerms } from './ticket-figures';

export interface OrderTicketProps {
  defaultSymbol: string;
  /** The symbol's trading rules, once loaded (the ticket checks quantity and prices against them) */
  infoOf: (symbol: string) => SymbolInfo | undefined;
  /** The ticket's symbol changed: its rules should be loaded */
  onSymbolChange: (symbol: string) => void;
  /** Sends the order (once); rejects with an `OrderFailureError` */
  place: (order: PlaceOrderRequest) => Promise<FuturesOrder>;
  /**
   * A price picked elsewhere (a row of the order book, a trade of the tape): it becomes the limit price, and a
   * market order becomes a limit one. A new object each pick, so the same price picked twice applies twice
   */
  pricePick?: { price: string };
  /** The account's available margin (quote asset), for sizing by a share of it; unknown: that choice is not offered */
  availableMargin?: string | undefined;
}

/** A client order id: the same id sent twice cannot make two orders (1-36 of A-Z a-z 0-9 . : / _ -) */
const newClientOrderId = () => `kweb${crypto.randomUUID().replaceAll('-', '')}`;

/** A figure of the order (its quantity, a price): decimal keypad, monospaced digits, nothing filled in by the browser */
function DecimalField({
  name,
  label,
  hint,
}: {
  name:
    | 'quantity'
    | 'price'
    | 'triggerPrice'
    | 'takeProfit'
    | 'stopLoss'
    | 'callbackRate'
    | 'activationPrice';
  label: string;
  hint?: string;
}) {
  return (
    <FormField<TicketValues, typeof name> name={name} label={label} hint={hint} announceError={false}>
      {(control) => <FigureInput {...control} />}
    </FormField>
  );
}

/** The shares of the available margin a size can take */
const MARGIN_SHARES = [10, 25, 50, 75, 100] as const;

/**
 * The order ticket: limit, market, stop-market and take-profit-market, reduce-only; checked with the contract's
 * CreateOrderRequestSchema and the symbol's filters, then confirmed in a sentence before it is sent
 */
export function OrderTicket({
  defaultSymbol,
  infoOf,
  onSymbolChange,
  place,
  pricePick,
  availableMargin,
}: OrderTicketProps) {
  const infoRef = useRef(infoOf);
  infoRef.current = infoOf;
  // A market entry's TP/SL are checked against the mark price as it is when the trader reviews the order
  const markRef = useRef<string | undefined>(undefined);
  // The rules are read at validation time: a symbol's filters arrive after the form was built
  const resolver: Resolver<TicketValues, unknown, PlaceOrderRequest> = (values, context, options) =>
    zodResolver(ticketSchema(infoRef.current(values.symbol.trim().toUpperCase()), markRef.current))(
      values,
      context,
      options,
    );
  const form = useForm<TicketValues, unknown, PlaceOrderRequest>({
    resolver,
    defaultValues: defaultTicketValues(defaultSymbol),
  });
  const [review, setReview] = useState<PlaceOrderRequest | null>(null);
  const [placed, setPlaced] = useState<string | null>(null);
  // Kept after a "status unknown": sending the same order again under the same id cannot place it twice
  const pendingId = useRef<{ key: string; id: string } | null>(null);
  // A confirmation of the last order must not linger beside a new one being typed
  useEffect(() => {
    const subscription = form.watch(() => setPlaced(null));
    return () => subscription.unsubscribe();
  }, [form]);
  useEffect(() => {
    if (!pricePick) return;
    if (!needsPrice(form.getValues('type'))) form.setValue('type', 'LIMIT');
    form.setValue('price', pricePick.price, { shouldDirty: true });
  }, [pricePick, form]);
  const [type, side, symbol, quantity, limitPrice, reduceOnly] = useWatch({
    control: form.control,
    name: ['type', 'side', 'symbol', 'quantity', 'price', 'reduceOnly'],
  });
  const ticketSymbol = symbol.trim().toUpperCase();
  const info = infoOf(ticketSymbol);
  const config = useSymbolConfig(ticketSymbol, true);
  // The size typed in the quote asset (USDT) becomes the quantity at the order's price: its limit price, or the
  // mark price the socket pushes for a market or stop order
  const [sizeIn, setSizeIn] = useState<'base' | 'quote' | 'margin'>('base');
  const [marginShare, setMarginShare] = useState(25);
  const [quoteSize, setQuoteSize] = useState('');
  const mark = useLiveMarkPrices([ticketSymbol]).get(ticketSymbol)?.markPrice;
  markRef.current = mark;
  const referencePrice = needsPrice(type) ? limitPrice : (mark ?? '');
  const leverage = config.data?.leverage;
  const shareValue =
    availableMargin !== undefined && leverage !== undefined
      ? valueForMarginShare(availableMargin, marginShare, leverage)
      : undefined;
  useEffect(() => {
    if (sizeIn === 'base' || !info) return;
    const value = sizeIn === 'quote' ? quoteSize : (shareValue ?? '');
    const quantity = quantityForValue(value, referencePrice, info.stepSize);
    if (quantity !== undefined)
      form.setValue('quantity', quantity, { shouldValidate: form.formState.isSubmitted });
  }, [sizeIn, quoteSize, shareValue, referencePrice, info, form]);
  const p = precisionOf(info);
  const values = useWatch({ control: form.control });
  const preview = useOrderPreview(previewRequest(values));

  const onSubmit = (order: PlaceOrderRequest) => {
    setPlaced(null);
    form.clearErrors('root');
    setReview(order);
  };

  const send = async () => {
    if (!review) return;
    const key = JSON.stringify(review);
    if (pendingId.current?.key !== key) pendingId.current = { key, id: newClientOrderId() };
    const order = await place({ ...review, clientOrderId: pendingId.current.id });
    pendingId.current = null;
    setPlaced(
      `Order placed: ${describeOrder(review, p)} (order ${order.orderId}, ${order.status.toLowerCase()})` +
        (review.protection ? '. Its TP/SL goes on once it fills: see the open orders' : ''),
    );
  };

  const onFailure = (failure: OrderFailure) => {
    if (failure.kind !== 'unknown') pendingId.current = null;
    form.setError('root', { message: failureText(failure) });
  };

  return (
    <Card>
      <CardHeader>
        <h2 className="db:font-semibold db:leading-none">Place an order</h2>
        <CardDescription>
          {info
            ? `${info.symbol}: tick ${info.tickSize}, step ${info.stepSize}, minimum ${info.minNotional} ${info.quoteAsset}`
            : 'Checked against the symbol’s trading rules before it is sent.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="db:flex db:flex-col db:gap-3">
        <SymbolTerms symbol={ticketSymbol} />
        <Form form={form} onSubmit={onSubmit} aria-label="Order ticket">
          <fieldset className="db:grid db:grid-cols-2 db:gap-2">
            <legend className="db:sr-only">Side</legend>
            {(['BUY', 'SELL'] as const).map((s) => (
              <label
                key={s}
                className={cn(
                  'db:flex db:h-9 db:cursor-pointer db:items-center db:justify-center db:rounded-md db:border db:text-sm db:font-medium db:has-[:focus-visible]:outline-2 db:has-[:focus-visible]:outline-ring',
                  side === s
                    ? s === 'BUY'
                      ? 'db:border-success db:bg-success db:text-success-foreground'
                      : 'db:border-destructive db:bg-destructive db:text-destructive-foreground'
                    : 'db:border-input db:text-muted-foreground db:hover:bg-accent',
                )}
              >
                <input type="radio" value={s} className="db:sr-only" {...form.register('side')} />
                {s === 'BUY' ? 'Buy / long' : 'Sell / short'}
              </label>
            ))}
          </fieldset>
          <div className="db:grid db:grid-cols-2 db:gap-3">
            <FormField<TicketValues, 'symbol'> name="symbol" label="Symbol" announceError={false}>
              {({ onBlur, ...control }) => (
                <Input
                  {...control}
                  autoCapitalize="characters"
                  autoComplete="off"
                  spellCheck={false}
                  className="db:font-mono db:uppercase"
                  onBlur={() => {
                    onBlur();
                    onSymbolChange(control.value.trim().toUpperCase());
                  }}
                />
              )}
            </FormField>
            <FormField<TicketValues, 'type'> name="type" label="Type" announceError={false}>
              {(control) => (
                <NativeSelect {...control}>
                  {TICKET_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {TICKET_TYPE_LABELS[t]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
          </div>
          <fieldset className="db:flex db:items-center db:gap-3 db:text-sm">
            <legend className="db:sr-only">Size in</legend>
            <span className="db:text-muted-foreground" aria-hidden="true">
              Size in
            </span>
            {(availableMargin !== undefined
              ? (['base', 'quote', 'margin'] as const)
              : (['base', 'quote'] as const)
            ).map((unit) => (
              <label key={unit} className="db:flex db:items-center db:gap-1">
                <input
                  type="radio"
                  name="ticket-size-in"
                  checked={sizeIn === unit}
                  onChange={() => setSizeIn(unit)}
                />
                {unit === 'base'
                  ? (info?.baseAsset ?? 'coin')
                  : unit === 'quote'
                    ? (info?.quoteAsset ?? 'USDT')
                    : '% of available'}
              </label>
            ))}
          </fieldset>
          {sizeIn === 'quote' && (
            <Field
              label={`Size (${info?.quoteAsset ?? 'USDT'})`}
              hint={
                referencePrice
                  ? 'Turned into the quantity below at the order’s price, rounded down to the lot step'
                  : 'Waiting for a price to turn it into a quantity'
              }
              announceError={false}
            >
              {(control) => <FigureInput {...control} value={quoteSize} onValueChange={setQuoteSize} />}
            </Field>
          )}
          {sizeIn === 'margin' && (
            <Field
              label="Share of the available margin"
              hint={
                shareValue && leverage
                  ? `${formatUsdt(Number(shareValue) / leverage)} ${info?.quoteAsset ?? 'USDT'} of margin at ${leverage}x: ${formatUsdt(Number(shareValue))} ${info?.quoteAsset ?? 'USDT'} of order`
                  : 'Waiting for the leverage and the available margin'
              }
              announceError={false}
            >
              {(control) => (
                <NativeSelect
                  {...control}
                  value={String(marginShare)}
                  onChange={(e) => setMarginShare(Number(e.target.value))}
                >
                  {MARGIN_SHARES.map((share) => (
                    <option key={share} value={share}>
                      {share} %
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
          )}
          <DecimalField name="quantity" label={`Quantity${info ? ` (${info.baseAsset})` : ''}`} />
          {needsPrice(type) && <DecimalField name="price" label="Limit price" />}
          {needsPrice(type) && (
            <FormField<TicketValues, 'timeInForce'>
              name="timeInForce"
              label="Time in force"
              announceError={false}
            >
              {(control) => (
                <NativeSelect {...control}>
                  {TICKET_TIMES_IN_FORCE.map((t) => (
                    <option key={t} value={t}>
                      {TIME_IN_FORCE_LABELS[t]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
          )}
          <OrderValue
            quantity={quantity}
            price={needsPrice(type) ? limitPrice : ''}
            quoteAsset={info?.quoteAsset}
            leverage={config.data?.leverage}
            preview={preview.data}
            pricePrecision={p.price}
          />
          {needsTrigger(type) && (
            <DecimalField
              name="triggerPrice"
              label="Trigger price"
              hint="Fires a market order when the last price reaches it"
            />
          )}
          {isTrailing(type) && (
            <div className="db:grid db:grid-cols-2 db:gap-3">
              <DecimalField
                name="callbackRate"
                label="Callback rate (%)"
                hint="How far the price may come back from its best, 0.1 to 10 %"
              />
              <DecimalField
                name="activationPrice"
                label="Activation price"
                hint="Starts trailing there (optional: at once)"
              />
            </div>
          )}
          {takesProtection(type, reduceOnly) && (
            <fieldset className="db:grid db:grid-cols-2 db:gap-3">
              <legend className="db:mb-1 db:text-sm db:text-muted-foreground">
                TP/SL, placed once the order fills (optional)
              </legend>
              <DecimalField
                name="takeProfit"
                label="Take-profit"
                hint={`Mark price ${side === 'BUY' ? 'above' : 'below'} the entry`}
              />
              <DecimalField
                name="stopLoss"
                label="Stop-loss"
                hint={`Mark price ${side === 'BUY' ? 'below' : 'above'} the entry`}
              />
            </fieldset>
          )}
          <label className="db:flex db:items-center db:gap-2 db:text-sm">
            <input type="checkbox" className="db:size-4" {...form.register('reduceOnly')} />
            Reduce-only (never opens or adds to a position)
          </label>
          <FormMessage />
          {placed && (
            <p role="status" className="db:text-sm db:text-success">
              {placed}
            </p>
          )}
          <Button type="submit" variant={side === 'BUY' ? 'default' : 'destructive'}>
            Review order
          </Button>
        </Form>
        {review && (
          <ConfirmActionDialog
            open
            onOpenChange={(next) => !next && setReview(null)}
            title="Place order"
            sentence={`${describeOrder(review, p)}${describeEntryProtection(review, p.price)}`}
            confirmLabel="Place order"
            onConfirm={send}
            onFailure={onFailure}
          />
        )}
      </CardContent>
    </Card>
  );
}
