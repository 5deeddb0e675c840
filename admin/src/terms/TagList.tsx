import { TermList } from './TermList';
import { TAG_UI } from './term.kinds';

export default function TagList() {
  return <TermList kind={TAG_UI} />;
}
