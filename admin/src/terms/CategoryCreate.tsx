import { TermCreate } from './TermForm';
import { CATEGORY_UI } from './term.kinds';

export default function CategoryCreate() {
  return <TermCreate kind={CATEGORY_UI} />;
}
