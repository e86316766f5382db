import { Badge, Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@kestrel/ui';
import type { ReactNode } from 'react';
import type { BotTemplate } from '../lib/templates';

/** One template: what it does, how it makes and loses money, its recent figures and the way to use it */
export function TemplateCard({
  template,
  figures,
  action,
}: {
  template: BotTemplate;
  /** Its backtest on recent data (absent for a template that cannot run yet) */
  figures?: ReactNode;
  action?: ReactNode;
}) {
  const id = `template-${template.strategy ?? 'agent'}`;
  return (
    <Card role="region" aria-labelledby={id} className="bt:flex bt:h-full bt:flex-col">
      <CardHeader>
        <CardTitle id={id} className="bt:flex bt:flex-wrap bt:items-center bt:gap-2">
          {template.title}
          {template.coming && <Badge variant="secondary">Coming</Badge>}
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
        {template.coming && <p className="bt:text-sm bt:font-medium">{template.coming}</p>}
        {figures && <div className="bt:mt-auto bt:border-t bt:border-border bt:pt-3">{figures}</div>}
      </CardContent>
      {action && <CardFooter>{action}</CardFooter>}
    </Card>
  );
}
