import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import AddComment from '@mui/icons-material/AddComment';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import HelpOutline from '@mui/icons-material/HelpOutline';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../lib/session';
import { useHasBeenTrue } from '../../lib/use-has-been-true';
import { DRAWER_WIDTH, DRAWER_WIDTH_CLOSED } from '../../theme/theme';
import { useUiState } from '../ui-state';
import { NavEntry } from './NavEntry';
import { GUEST_LINKS, HELP_ITEMS, MEMBER_LINKS } from './nav-items';

interface Props {
  /** Large screens: permanent mini drawer; small screens: temporary drawer. */
  permanent: boolean;
  /** Extra panel under the links (part 2: the MyFiles panel). */
  panel?: ReactNode;
}

export function SideDrawer({ permanent, panel }: Props) {
  const { navOpen, setNavOpen, openContact, requestNewTopic } = useUiState();
  const { isAuthenticated } = useSession();
  const [helpOpen, setHelpOpen] = useState(true);
  // The temporary drawer stays mounted while closed; its panel (a fetch and a lazy chunk) waits
  // for the first opening.
  const panelWanted = useHasBeenTrue(navOpen);
  const navigate = useNavigate();
  const mini = permanent && !navOpen;
  const afterNavigate = () => {
    if (!permanent) setNavOpen(false);
  };
  const entry = (nested: boolean) => (item: (typeof HELP_ITEMS)[number]) => (
    <NavEntry
      key={item.label}
      item={item}
      mini={mini}
      nested={nested}
      onNavigate={afterNavigate}
      onContact={openContact}
    />
  );
  const width = mini ? DRAWER_WIDTH_CLOSED : DRAWER_WIDTH;

  const content = (
    <Box component="nav" aria-label="Main" sx={{ overflowX: 'hidden', height: '100%' }}>
      <Toolbar />
      <List>
        <ListItem disablePadding sx={{ display: 'block' }}>
          <ListItemButton
            sx={{ pl: 2.5, minHeight: 44 }}
            onClick={() => {
              requestNewTopic();
              navigate('/');
              afterNavigate();
            }}
          >
            <ListItemIcon sx={{ minWidth: 40 }}>
              <AddComment />
            </ListItemIcon>
            <ListItemText primary="New Topic" sx={mini ? { opacity: 0 } : undefined} />
          </ListItemButton>
        </ListItem>
        <ListItem disablePadding sx={{ display: 'block' }}>
          <ListItemButton
            sx={{ pl: 2.5, minHeight: 44 }}
            aria-expanded={helpOpen}
            aria-controls="help-links"
            onClick={() => setHelpOpen((o) => !o)}
          >
            <ListItemIcon sx={{ minWidth: 40 }}>
              <HelpOutline />
            </ListItemIcon>
            <ListItemText primary="Help" sx={mini ? { opacity: 0 } : undefined} />
            {!mini && (helpOpen ? <ExpandLess /> : <ExpandMore />)}
          </ListItemButton>
          <Collapse in={helpOpen} timeout="auto">
            <List id="help-links" disablePadding>
              {HELP_ITEMS.map(entry(true))}
            </List>
          </Collapse>
        </ListItem>
      </List>
      <Divider />
      <List>{(isAuthenticated ? MEMBER_LINKS : GUEST_LINKS).map(entry(false))}</List>
      {panel && !mini && (permanent || panelWanted) && <Box sx={{ px: 1 }}>{panel}</Box>}
    </Box>
  );

  if (!permanent) {
    return (
      <Drawer
        id="side-drawer"
        variant="temporary"
        open={navOpen}
        onClose={() => setNavOpen(false)}
        ModalProps={{ keepMounted: true }}
        // On small screens the drawer is a modal dialog, and a dialog needs a name.
        PaperProps={{ 'aria-label': 'Navigation menu' }}
        sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
      >
        {content}
      </Drawer>
    );
  }
  return (
    <Drawer
      id="side-drawer"
      variant="permanent"
      open={navOpen}
      sx={{
        width,
        flexShrink: 0,
        whiteSpace: 'nowrap',
        transition: (t) => t.transitions.create('width'),
        '& .MuiDrawer-paper': {
          width,
          overflowX: 'hidden',
          transition: (t) => t.transitions.create('width'),
        },
      }}
    >
      {content}
    </Drawer>
  );
}
