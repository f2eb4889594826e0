import Article from '@mui/icons-material/Article';
import Description from '@mui/icons-material/Description';
import InsertDriveFile from '@mui/icons-material/InsertDriveFile';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import Slideshow from '@mui/icons-material/Slideshow';
import TableChart from '@mui/icons-material/TableChart';
import type { FileItem } from '@inkwell/contract';

/** The icon of a file, by its type. */
export function FileTypeIcon({ type }: { type: FileItem['type'] }) {
  switch (type) {
    case 'pdf':
      return <PictureAsPdf sx={{ color: '#c62828' }} />;
    case 'docx':
      return <Description sx={{ color: '#1565c0' }} />;
    case 'xlsx':
    case 'csv':
      return <TableChart sx={{ color: '#2e7d32' }} />;
    case 'pptx':
      return <Slideshow sx={{ color: '#ef6c00' }} />;
    case 'txt':
      return <Article color="action" />;
    default:
      return <InsertDriveFile color="action" />;
  }
}
