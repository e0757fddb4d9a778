import { ScaffoldDetailPage } from '../scaffold-detail-page';
import { SCAFFOLD_KINDS } from '../scaffold-kinds';

export default function NewitemtwoDetailPage() {
  return <ScaffoldDetailPage kind={SCAFFOLD_KINDS.newitemtwo} />;
}
