import { TermCreate } from './TermForm';
import { TAG_UI } from './term.kinds';

export default function TagCreate() {
  return <TermCreate kind={TAG_UI} />;
}
