import { TermList } from './TermList';
import { CATEGORY_UI } from './term.kinds';

export default function CategoryList() {
  return <TermList kind={CATEGORY_UI} />;
}
