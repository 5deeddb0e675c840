import { TermEdit } from './TermForm';
import { TAG_UI } from './term.kinds';

export default function TagEdit() {
  return <TermEdit kind={TAG_UI} />;
}
