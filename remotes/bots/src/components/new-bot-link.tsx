import { Link } from '@kestrel/shared-runtime/router';
import { buttonVariants } from '@kestrel/ui';
import { paths } from '../config/paths';

/** The bot pages' header action: a new bot from an empty form */
export function NewBotLink() {
  return (
    <Link to={paths.createBot.getHref()} className={buttonVariants({ size: 'sm' })}>
      New bot
    </Link>
  );
}
