import { Badge, Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@kestrel/ui';
import type { ReactNode } from 'react';
import type { BotTemplate } from '../lib/templates';

/** One template: what it does, how it makes and loses money, its recent figures and the way to use it */
export function TemplateCard({
  template,
  figures,
  action,
  unavailable,
}: {
  template: BotTemplate;
  /** Its backtest on recent data, or why there is none */
  figures?: ReactNode;
  action?: ReactNode;
  /** Why it cannot be used on this server (its strategy is not in the server's catalogue), said plainly */
  unavailable?: string;
}) {
  const id = `template-${template.strategy}`;
  return (
    <Card role="region" aria-labelledby={id} className="bt:flex bt:h-full bt:flex-col">
      <CardHeader>
        <CardTitle id={id} className="bt:flex bt:flex-wrap bt:items-center bt:gap-2">
          {template.title}
          {unavailable && <Badge variant="secondary">Unavailable</Badge>}
        </CardTitle>
        <CardDescription>{template.summary}</CardDescription>
      </CardHeader>
      <CardContent className="bt:flex bt:flex-1 bt:flex-col bt:gap-3 bt:text-sm">
        <dl className="bt:flex bt:flex-col bt:gap-2">
          <div>
            <dt className="bt:font-medium bt:text-success">How it makes money</dt>
            <dd className="bt:text-muted-foreground">{template.earns}</dd>
          </div>
          <div>
            <dt className="bt:font-medium bt:text-destructive">How it loses money</dt>
            <dd className="bt:text-muted-foreground">{template.loses}</dd>
          </div>
        </dl>
        {unavailable && <p className="bt:text-sm bt:font-medium">{unavailable}</p>}
        {figures && <div className="bt:mt-auto bt:border-t bt:border-border bt:pt-3">{figures}</div>}
      </CardContent>
      {action && <CardFooter>{action}</CardFooter>}
    </Card>
  );
}
