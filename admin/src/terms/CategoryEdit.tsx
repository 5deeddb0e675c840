import { TermEdit } from './TermForm';
import { CATEGORY_UI } from './term.kinds';

export default function CategoryEdit() {
  return <TermEdit kind={CATEGORY_UI} />;
}
