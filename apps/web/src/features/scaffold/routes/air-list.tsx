import { ScaffoldListPage } from '../scaffold-list-page';
import { SCAFFOLD_KINDS } from '../scaffold-kinds';

export default function AirListPage() {
  return <ScaffoldListPage kind={SCAFFOLD_KINDS.air} />;
}
