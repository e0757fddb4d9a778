import { ScaffoldListPage } from '../scaffold-list-page';
import { SCAFFOLD_KINDS } from '../scaffold-kinds';

export default function EndpointtestListPage() {
  return <ScaffoldListPage kind={SCAFFOLD_KINDS.endpointtest} />;
}
