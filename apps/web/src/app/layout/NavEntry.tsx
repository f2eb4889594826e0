import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import { NavLink } from 'react-router-dom';
import { visuallyHidden } from '../../components/ui/visually-hidden';
import { withBase } from '../../lib/base-path';
import type { NavItem } from './nav-items';

interface Props {
  item: NavItem;
  /** Narrow drawer: icons only, the label becomes a tooltip. */
  mini: boolean;
  nested?: boolean;
  onNavigate: () => void;
  onContact: () => void;
}

export function NavEntry({ item, mini, nested, onNavigate, onContact }: Props) {
  const sx = { pl: nested && !mini ? 4 : 2.5, minHeight: 44 };
  const content = (
    <>
      <ListItemIcon sx={{ minWidth: 40 }}>{item.icon}</ListItemIcon>
      <ListItemText primary={item.label} sx={mini ? visuallyHidden : undefined} />
    </>
  );
  let button;
  if ('to' in item) {
    button = (
      <ListItemButton component={NavLink} to={item.to} end sx={sx} onClick={onNavigate}>
        {content}
      </ListItemButton>
    );
  } else if ('href' in item) {
    button = (
      <ListItemButton
        component="a"
        href={withBase(item.href)}
        target="_blank"
        rel="noopener noreferrer"
        sx={sx}
        onClick={onNavigate}
      >
        {content}
      </ListItemButton>
    );
  } else {
    button = (
      <ListItemButton
        sx={sx}
        onClick={() => {
          onNavigate();
          onContact();
        }}
      >
        {content}
      </ListItemButton>
    );
  }
  // Inside a <List> (a <ul>), every entry must be an <li>.
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      {mini ? (
        <Tooltip title={item.label} placement="right">
          {button}
        </Tooltip>
      ) : (
        button
      )}
    </ListItem>
  );
}
