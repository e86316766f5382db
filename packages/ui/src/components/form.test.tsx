import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Button } from './button';
import { Form, FormField, FormMessage } from './form';
import { Input } from './input';
import { NativeSelect } from './native-select';

const OrderSchema = z.object({
  symbol: z.string().min(1, 'Symbol is required'),
  side: z.enum(['buy', 'sell'], { message: 'Pick a side' }),
  quantity: z.coerce.number<string>().positive('Quantity must be above 0'),
});
type OrderInput = z.input<typeof OrderSchema>;
type Order = z.output<typeof OrderSchema>;

function OrderForm({ onSubmit, refuse }: { onSubmit: (order: Order) => void; refuse?: string }) {
  const form = useForm<OrderInput, unknown, Order>({
    resolver: zodResolver(OrderSchema),
    defaultValues: { symbol: '', side: 'buy', quantity: '' },
  });
  return (
    <Form
      form={form}
      aria-label="Order"
      onSubmit={(order) => {
        if (refuse) form.setError('root', { message: refuse });
        else onSubmit(order);
      }}
    >
      <FormField<OrderInput, 'symbol'> name="symbol" label="Symbol" hint="e.g. BTCUSDT">
        {(props) => <Input {...props} />}
      </FormField>
      <FormField<OrderInput, 'side'> name="side" label="Side">
        {(props) => (
          <NativeSelect {...props}>
            <option value="buy">Buy</option>
            <option value="sell">Sell</option>
          </NativeSelect>
        )}
      </FormField>
      <FormField<OrderInput, 'quantity'> name="quantity" label="Quantity">
        {(props) => <Input inputMode="decimal" {...props} />}
      </FormField>
      <FormMessage />
      <Button type="submit">Place order</Button>
    </Form>
  );
}

/** What a screen reader reads after the control's name: the texts aria-describedby points at, in order */
function description(control: HTMLElement): string {
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? `<missing #${id}>`).join(' | ');
}

describe('Form', () => {
  it('names each control by its label and reads its hint, all valid before a submit', () => {
    render(<OrderForm onSubmit={vi.fn()} />);
    const symbol = screen.getByRole('textbox', { name: 'Symbol' });
    expect(description(symbol)).toBe('e.g. BTCUSDT');
    expect(symbol.getAttribute('aria-invalid')).toBe('false');
    expect(screen.getByRole('combobox', { name: 'Side' })).toBeTruthy();
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
  });

  it("shows the schema's messages on submit, each tied to its control and announced", async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<OrderForm onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    const symbol = screen.getByRole('textbox', { name: 'Symbol' });
    const quantity = screen.getByRole('textbox', { name: 'Quantity' });
    expect(symbol.getAttribute('aria-invalid')).toBe('true');
    expect(description(symbol)).toBe('e.g. BTCUSDT | Symbol is required');
    expect(quantity.getAttribute('aria-invalid')).toBe('true');
    expect(description(quantity)).toBe('Quantity must be above 0');
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Symbol is required',
      'Quantity must be above 0',
    ]);
    expect(onSubmit).not.toHaveBeenCalled();
    // The first invalid control takes focus, so the keyboard lands where the fix is needed
    expect(document.activeElement).toBe(symbol);
  });

  it("submits the schema's output once the fields are fixed, and clears their errors", async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<OrderForm onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    await user.type(screen.getByRole('textbox', { name: 'Symbol' }), 'BTCUSDT');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Side' }), 'sell');
    await user.type(screen.getByRole('textbox', { name: 'Quantity' }), '0.015');
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    expect(onSubmit).toHaveBeenCalledWith({ symbol: 'BTCUSDT', side: 'sell', quantity: 0.015 });
    expect(screen.getByRole('textbox', { name: 'Symbol' }).getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
  });

  it("announces the form's own error (the server's refusal) apart from the fields", async () => {
    const user = userEvent.setup();
    render(<OrderForm onSubmit={vi.fn()} refuse="Margin is insufficient" />);
    await user.type(screen.getByRole('textbox', { name: 'Symbol' }), 'BTCUSDT');
    await user.type(screen.getByRole('textbox', { name: 'Quantity' }), '1');
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    expect(screen.getByRole('alert').textContent).toBe('Margin is insufficient');
  });
});
